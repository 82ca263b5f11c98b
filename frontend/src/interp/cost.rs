//! Work and span under the parallel cost model (the chapter "A Parallel
//! Cost Model for Futhark Programs", shared/references/parallel-cost-model.txt).
//!
//! The interpreter keeps two counters while it runs with `RunOptions::cost`:
//! `work`, the total number of operations, and `span`, the length of the
//! longest chain of dependent operations of the evaluation so far.
//! Sequential composition adds both (evaluating `e1` then `e2` adds their
//! spans, so a `loop` sums its iterations). A parallel construct saves the
//! span, evaluates each element from span 0, and continues from the saved
//! span plus the combination of the elements' spans:
//!
//! | construct | work | span |
//! | --- | --- | --- |
//! | scalar operator, conversion, math function, index | 1 | 1 |
//! | `map f xs`, `tabulate` | Σ work(f xᵢ) | max span(f xᵢ) |
//! | `reduce`, `scan`, `hist`, `reduce_by_index` | Σ work(op) | ⌈log₂ n⌉ · max span(op) |
//! | `filter`, `partition` | Σ work(p xᵢ) + n | max span(p xᵢ) + ⌈log₂ n⌉ |
//! | `iota`, `replicate`, `copy`, `concat`, `rotate`, `reverse`, `transpose`, `flatten`, `unflatten`, `split`, `zip`, `unzip`, ranges | n (elements) | 1 |
//! | `scatter` (n writes), slice update (n elements) | n | 1 |
//!
//! The numeric modules' `sum`, `maximum`, ... are prelude functions (a
//! `reduce`), counted as such. Variables, literals, tuples, records,
//! `let`, function application and projection are free. A reduction of one element takes one step
//! (`log_steps(1) = 1`).
//!
//! With `cost` off, each counting site is one predictable branch.

use super::eval::Interp;

/// ⌈log₂ n⌉ steps of a tree reduction of `n` elements (1 for one element, 0
/// for none).
pub fn log_steps(n: usize) -> u64 {
    match n {
        0 => 0,
        1 => 1,
        n => (usize::BITS - (n - 1).leading_zeros()) as u64,
    }
}

/// The state of a parallel construct: the span before it and the largest
/// span of an element so far.
pub(crate) struct Par {
    saved: u64,
    max: u64,
}

impl Interp<'_> {
    /// One scalar operation.
    #[inline(always)]
    pub(crate) fn tick(&mut self) {
        if self.cost {
            self.work = self.work.saturating_add(1);
            self.span = self.span.saturating_add(1);
        }
    }

    #[inline]
    pub(crate) fn charge(&mut self, work: u64, span: u64) {
        if self.cost {
            self.work = self.work.saturating_add(work);
            self.span = self.span.saturating_add(span);
        }
    }

    #[inline]
    pub(crate) fn par_begin(&mut self) -> Par {
        Par {
            saved: self.span,
            max: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn par_elem_begin(&mut self) {
        if self.cost {
            self.span = 0;
        }
    }

    #[inline(always)]
    pub(crate) fn par_elem_end(&mut self, p: &mut Par) {
        if self.cost {
            p.max = p.max.max(self.span);
        }
    }

    /// End a parallel construct whose elements' spans combine as `steps`
    /// times the largest.
    #[inline]
    pub(crate) fn par_end(&mut self, p: Par, steps: u64) {
        if self.cost {
            self.span = p.saved.saturating_add(steps.saturating_mul(p.max));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::log_steps;

    #[test]
    fn log_steps_is_ceil_log2() {
        assert_eq!(log_steps(0), 0);
        assert_eq!(log_steps(1), 1);
        assert_eq!(log_steps(2), 1);
        assert_eq!(log_steps(3), 2);
        assert_eq!(log_steps(4), 2);
        assert_eq!(log_steps(5), 3);
        assert_eq!(log_steps(1024), 10);
        assert_eq!(log_steps(1025), 11);
        assert_eq!(log_steps(10_000_000), 24);
    }
}
