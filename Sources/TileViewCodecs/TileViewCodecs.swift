// TileViewCodecs: format sniffing, headers, EXIF orientation, the PNG and JPEG decoders and the
// PNG encoder (DESIGN section 8). The only Swift module that imports C.
