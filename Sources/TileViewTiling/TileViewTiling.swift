// TileViewTiling: tile ids, the tile grid of each level of detail, the level pyramid and the
// byte-budgeted tile cache (DESIGN section 6). Pure: no I/O, no C.
