//! Helpers shared by the frontend's integration tests.

use futmlir_frontend::values::generate::Rng;

/// Replaces one occurrence of a token by another of its group in `swaps`; `None` if
/// the token does not occur. Returns the new text and a note.
pub fn swap_token(rng: &mut Rng, text: &str, swaps: &[&[&str]]) -> Option<(String, String)> {
    let group = swaps[rng.index(swaps.len())];
    let from = group[rng.index(group.len())];
    let to = group[rng.index(group.len())];
    let symbolic = !from.starts_with(|c: char| c.is_alphanumeric());
    let glued = |c: Option<char>| {
        c.is_some_and(|c| {
            if symbolic {
                "+-*/%<>=!&|^.".contains(c)
            } else {
                c.is_alphanumeric() || c == '_'
            }
        })
    };
    let hits: Vec<usize> = text
        .match_indices(from)
        .map(|(i, _)| i)
        .filter(|&i| !glued(text[..i].chars().next_back()) && !glued(text[i + from.len()..].chars().next()))
        .collect();
    if hits.is_empty() || from == to {
        return None;
    }
    let at = hits[rng.index(hits.len())];
    let line = 1 + text[..at].matches('\n').count();
    Some((
        format!("{}{}{}", &text[..at], to, &text[at + from.len()..]),
        format!("line {line}: `{from}` -> `{to}`"),
    ))
}
