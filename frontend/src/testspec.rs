//! `-- ==` test blocks (to be written).
