import TileViewCore

/// The gesture forms of `--gesture` and of gallery scripts.
public enum ZoomGestureGrammar: AlternativesGrammar {
    public static let forms =
        "double-tap X,Y | two-finger-tap | pinch F X,Y | pan DX,DY | pan DX,DY velocity VX,VY | zoom-to X,Y,W,H "
        + "| rotate DEGREES (X,Y and DX,DY in viewport pixels, VX,VY in viewport pixels per millisecond, zoom-to in "
        + "image pixels, DEGREES clockwise: 90, 180, 270 or -90; numbers like 120, -3.5 or 0.25)"
    public static let noun = "gesture"
}

/// Why a gesture's text could not be read.
public typealias ZoomGestureParseError = TextParseError<ZoomGestureGrammar>
