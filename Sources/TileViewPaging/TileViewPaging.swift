// TileViewPaging: page lists and 2-D page maps, the current position, linear and circular
// indexing, the resident-set plan, drags and snapping (DESIGN section 4). Pure: no I/O, no C.
