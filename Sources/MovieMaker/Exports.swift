// The pure-Swift core (time, geometry, paths, colours, easing, errors, JSON) is a target of its own so
// the compiler keeps it free of C and of everything above it; users still write `import MovieMaker`.
@_exported import MovieMakerCore
