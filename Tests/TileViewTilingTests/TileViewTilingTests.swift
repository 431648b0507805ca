// Tests for TileViewTiling.
