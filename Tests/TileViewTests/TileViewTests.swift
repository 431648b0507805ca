// Tests for TileView.
