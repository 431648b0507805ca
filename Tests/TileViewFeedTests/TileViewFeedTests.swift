// Tests for TileViewFeed.
