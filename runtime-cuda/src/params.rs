//! The tuning parameters of generated code: thresholds it reads at run
//! time with `futrt_param` (by number, the position in [`PARAMS`]),
//! listed by `--print-params` and set with `--param NAME=VALUE`, as
//! Futhark's executables do. The numbers are part of the ABI
//! (`ABI.md`); the compiler's `segop-to-imp` names them in
//! `lowering/src/segop_to_imp/gpu/launch.rs`.

/// A parameter: its name, default and what it controls.
pub struct Param {
    pub name: &'static str,
    pub default: i64,
    pub about: &'static str,
    /// Its class in Futhark's terms (`futhark_get_tuning_param_class`),
    /// which the server's `tuning_params` prints.
    pub class: &'static str,
}

pub const PARAMS: &[Param] = &[
    Param {
        name: "reduce_groups",
        default: 4096,
        about: "the most groups (of 256 threads) a one-dimensional reduction or scan uses",
        class: "grid_size",
    },
    Param {
        name: "segred_group_min",
        default: 256,
        about: "the shortest segments a segmented reduction gives a group each (shorter: a thread each)",
        class: "threshold",
    },
];

/// The defaults, one value per parameter.
pub fn defaults() -> Vec<i64> {
    PARAMS.iter().map(|p| p.default).collect()
}

/// Applies `NAME=VALUE` to `values`; values must be positive.
pub fn set(values: &mut [i64], setting: &str) -> Result<(), String> {
    let (name, value) = setting
        .split_once('=')
        .ok_or_else(|| format!("--param needs NAME=VALUE, not `{setting}`"))?;
    let k = PARAMS.iter().position(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        format!("unknown parameter `{name}` (the parameters are: {})", names.join(", "))
    })?;
    values[k] = value
        .parse()
        .ok()
        .filter(|&v: &i64| v > 0)
        .ok_or_else(|| format!("parameter {name} needs a positive integer, not `{value}`"))?;
    Ok(())
}

/// The `--print-params` text: one `NAME (default D): ABOUT` a line.
pub fn listing() -> String {
    PARAMS
        .iter()
        .map(|p| format!("{} (default {}): {}\n", p.name, p.default, p.about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings() {
        let mut v = defaults();
        set(&mut v, "segred_group_min=32").unwrap();
        assert_eq!(v, vec![4096, 32]);
        assert!(set(&mut v, "segred_group_min=0").unwrap_err().contains("positive"));
        assert!(set(&mut v, "nope=3").unwrap_err().contains("unknown parameter `nope`"));
        assert!(set(&mut v, "reduce_groups").unwrap_err().contains("NAME=VALUE"));
        assert!(listing().starts_with("reduce_groups (default 4096): "));
    }
}
