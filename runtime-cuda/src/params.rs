//! The tuning parameters of generated code: thresholds it reads at run
//! time with `futrt_param` (by number, the position in [`PARAMS`]),
//! listed by `--print-params` and set with `--param NAME=VALUE`, a
//! tuning file (`--tuning FILE`, [`load_tuning_file`]) or, a whole class
//! at once, `--default-threshold` and `--default-num-thread-blocks`, as
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
    Param {
        name: "tile_min_blocks",
        default: 16,
        about: "the fewest blocks of results a tiled reduction runs tiled with (fewer: untiled)",
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
        .ok_or_else(|| format!("a tuning parameter needs NAME=VALUE, not `{setting}`"))?;
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

/// Sets every parameter of class `class` to `value` (the CUDA
/// executables' `--default-threshold`, `--default-num-thread-blocks`).
pub fn set_class(values: &mut [i64], class: &str, value: i64) {
    for (v, p) in values.iter_mut().zip(PARAMS) {
        if p.class == class {
            *v = value;
        }
    }
}

/// Applies the `NAME=VALUE` lines of a tuning file (Futhark's format, as
/// `futhark autotune` writes it) to `values`. Blank lines are skipped; an
/// error names the file and the line.
pub fn apply_tuning(values: &mut [i64], file: &str, text: &str) -> Result<(), String> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        set(values, line).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
    }
    Ok(())
}

/// Reads the tuning file `path` and applies it (see [`apply_tuning`]).
pub fn load_tuning_file(values: &mut [i64], path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read tuning file {path}: {e}"))?;
    apply_tuning(values, path, &text)
}

/// The `--print-params` text, as Futhark's executables print it: one
/// `NAME (CLASS)` a line.
pub fn listing() -> String {
    PARAMS.iter().map(|p| format!("{} ({})\n", p.name, p.class)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings() {
        let mut v = defaults();
        set(&mut v, "segred_group_min=32").unwrap();
        assert_eq!(v, vec![4096, 32, 16]);
        assert!(set(&mut v, "segred_group_min=0").unwrap_err().contains("positive"));
        assert!(set(&mut v, "nope=3").unwrap_err().contains("unknown parameter `nope`"));
        assert!(set(&mut v, "reduce_groups").unwrap_err().contains("NAME=VALUE"));
        assert_eq!(
            listing(),
            "reduce_groups (grid_size)\nsegred_group_min (threshold)\ntile_min_blocks (threshold)\n"
        );
        set_class(&mut v, "threshold", 7);
        assert_eq!(v, vec![4096, 7, 7]);
        set_class(&mut v, "grid_size", 9);
        assert_eq!(v, vec![9, 7, 7]);
    }

    #[test]
    fn tuning_files() {
        let mut v = defaults();
        apply_tuning(&mut v, "t.tuning", "reduce_groups=64\n\n  segred_group_min=2  \n").unwrap();
        assert_eq!(v, vec![64, 2, 16]);
        let e = apply_tuning(&mut v, "t.tuning", "reduce_groups=1\nfoo=3\n").unwrap_err();
        assert!(e.starts_with("t.tuning:2: unknown parameter `foo`"), "{e}");
        let e = apply_tuning(&mut v, "t.tuning", "reduce_groups=x").unwrap_err();
        assert!(
            e.starts_with("t.tuning:1: parameter reduce_groups needs a positive integer"),
            "{e}"
        );
        let e = apply_tuning(&mut v, "t.tuning", "reduce_groups 3").unwrap_err();
        assert!(e.starts_with("t.tuning:1: "), "{e}");
        let e = load_tuning_file(&mut v, "/nonexistent/x.tuning").unwrap_err();
        assert!(e.starts_with("cannot read tuning file /nonexistent/x.tuning"), "{e}");
    }
}
