-- Reverse mode through a loop whose array grows (doubled three times:
-- Σ of eight copies of a, gradient 8). The interpreter's tape handles it;
-- the compiled reverse mode keeps a tape row per iteration, so it refuses
-- the changing size with an error at run time (it once gave 4, silently).
-- ==
-- tags { no_cpu no_cuda }
-- input { 2.0 }
-- output { 8.0 }

-- ==
-- tags { no_interp }
-- input { 2.0 }
-- error: a loop whose merge arrays change size is not supported

def main (x: f64) = vjp (\a -> let ys = loop ys = [a] for _i < 3 do ys ++ ys in f64.sum ys) x 1
