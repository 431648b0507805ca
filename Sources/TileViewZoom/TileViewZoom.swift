// TileViewZoom: the zoom engine. `ZoomState` models UIScrollView's zooming and scrolling of one
// image in one viewport (DESIGN section 3): fit as the minimum scale, centring, clamping,
// zoomToRect, double tap, two-finger tap, pinch and pan. Pure: no Foundation, no C, no I/O.
