// TileViewFeed: the layout of a vertical feed of stacked sections (header, grid, image): frames, content
// offsets and visible grid cells for any container offset (DESIGN section 5). Pure: no I/O, no C.
