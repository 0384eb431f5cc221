package model

// RateStatedContiguousBytes is the size in bytes of the physically contiguous blocks the
// text says a driver or program on this host needs or fails to get ("not being able to
// allocate a 2MB slab of contiguous memory from the kernel"), read only beside the host's
// free blocks by order (buddyinfo, pagetypeinfo): the size tells at which order those lists
// are judged (fix55c).
const RateStatedContiguousBytes = "stated_contiguous_bytes"
