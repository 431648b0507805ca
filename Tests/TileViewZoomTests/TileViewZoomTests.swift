// Tests for TileViewZoom.
