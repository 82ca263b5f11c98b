-- A library with a sealed module.

module type BAG = {
  type bag
  val empty : bag
  val add : i32 -> bag -> bag
  val count : bag -> i32
}

module Bag : BAG = {
  type bag = (i32, i32)
  def empty : bag = (0, 0)
  def add (x: i32) ((n, s): bag) : bag = (n + 1, s + x)
  def count ((n, _): bag) = n
}

entry not_an_entry (x: i32) = x
