import Foundation

/// Large, short-lived buffers (a decoded photo's pixels, a photo file's bytes) as anonymous memory
/// mappings of their own, given back to the system the moment they are freed.
///
/// glibc's malloc serves blocks of this size from the arena of the allocating thread once its mmap
/// threshold has grown (it grows each time such a block is freed), and keeps freed blocks resident
/// until `malloc_trim`. Photos are decoded on a read-ahead thread or a drawing lane and dropped on
/// another, so freed pictures piled up in several arenas: `make bench`'s slideshow memory line held
/// about five 24 MP photos' worth of arena memory for the two the provider kept.
enum MappedMemory {
    /// `byteCount` zeroed bytes, page-aligned; nil when the system has no memory for them.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        let p = mmap(nil, max(1, byteCount), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        return p == MAP_FAILED ? nil : p
    }

    /// Gives back memory from `allocate(byteCount:)` (the same `byteCount`).
    static func deallocate(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(pointer, max(1, byteCount))
    }
}

/// Hands memory glibc's malloc keeps after a large free back to the system (`malloc_trim`): after a
/// photo or a video decoder is dropped, its pictures' blocks stay resident in the arenas otherwise.
enum FreedMemory {
    /// Calls `malloc_trim(0)`; does nothing where it is not glibc's allocator.
    static func release() { _ = mallocTrim?(0) }

    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of Swift's Glibc module.
    /// Nil under AddressSanitizer or ThreadSanitizer (`make sanitize`), whose allocators replace
    /// glibc's: glibc's `malloc_trim` then walks arenas that were never set up and crashes (found by
    /// the first `make sanitize` run).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        if dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil { return nil }
        guard let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
