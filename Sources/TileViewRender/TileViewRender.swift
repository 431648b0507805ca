// TileViewRender: composes a viewport frame from tiles and resamples (DESIGN section 7).
// Pure: no I/O, no C.
