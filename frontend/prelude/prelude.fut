-- The futmlir prelude: the parts of Futhark's basis library that are
-- written in Futhark. The rest are built-ins (see
-- frontend/src/check/builtins.rs); they move here as the language grows
-- (modules, the next issue, bring the numeric modules).

-- Function application and composition.
def (|>) '^a '^b (x: a) (f: a -> b): b = f x
def (<|) '^a '^b (f: a -> b) (x: a): b = f x
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a): c = g (f x)
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a): c = g (f x)

def id '^a (x: a): a = x
def const '^a '^b (x: a) (_: b): a = x
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a): c = f a b
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b): c = f (a, b)
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)): c = f p.0 p.1

-- Arrays.
def length [n] 't (_: [n]t): i64 = n
def null [n] 't (_: [n]t): bool = n == 0
def head [n] 't (xs: [n]t): t = xs[0]
def last [n] 't (xs: [n]t): t = xs[n - 1]
def tail [n] 't (xs: [n]t): []t = xs[1:]
def init [n] 't (xs: [n]t): []t = xs[:n - 1]
def take [n] 't (i: i64) (xs: [n]t): [i]t = xs[0:i] :> [i]t
def drop [n] 't (i: i64) (xs: [n]t): []t = xs[i:]
def indices [n] 't (_: [n]t): *[n]i64 = iota n

def all [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (&&) true (map f xs)
def any [n] 'a (f: a -> bool) (xs: [n]a): bool = reduce (||) false (map f xs)

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b): a =
  loop acc for b in bs do f acc b

def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b): a =
  loop acc for i < n do f bs[n - 1 - i] acc

def and [n] (xs: [n]bool): bool = reduce (&&) true xs
def or [n] (xs: [n]bool): bool = reduce (||) false xs
