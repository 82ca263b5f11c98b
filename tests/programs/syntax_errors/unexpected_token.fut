-- A parse error names the token in Futhark's words; futmlir's help says
-- what was expected.
-- ==
-- error: Unexpected token: 'bar'

type foo = #foo | bar
