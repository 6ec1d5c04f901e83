// CFuzzerDriver has only a declaration (include/CFuzzerDriver.h); SwiftPM wants a source file per C target.
