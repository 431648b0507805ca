// Tests for TileViewCodecs.
