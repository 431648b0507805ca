// Tests for TileViewRender.
