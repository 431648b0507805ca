// Tests for TileViewPaging.
