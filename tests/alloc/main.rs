//! Allocation guards (issue 25): the heap allocations a piece of work makes, counted by a global
//! allocator, held under fixed bounds chosen from what the work needs, so that a change that
//! allocates per record fails a test instead of costing a factor unnoticed. One test binary (the
//! allocator is the whole binary's), a module per area.
//!
//! Allocations are counted per thread (tests run on several at once): a count is what the
//! calling thread allocated (and reallocated) while the work ran.

mod import;
mod replay;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn counted() {
    // During a thread's teardown its counter may be gone: nothing is counted then.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

/// The system allocator, counting each allocation and reallocation on the thread that makes it.
struct Counting;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counted();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        counted();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The 31 real Tenhou games of ../shared/real-logs/tenhou, read in place, in name order.
pub(crate) fn real_tenhou_games() -> Vec<std::path::PathBuf> {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("manifest.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 31, "the real games in {}", dir.display());
    files
}

/// What `f` returns, and how many allocations and reallocations it made on this thread.
pub(crate) fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

/// The counter counts: a box is one allocation, a vector grown past its room one more, and
/// nothing is none.
#[test]
fn the_counter_counts_allocations_on_this_thread() {
    let (_, n) = allocations(|| std::hint::black_box(Box::new(7u64)));
    assert_eq!(n, 1);
    // Pushed one at a time on purpose: the second push outgrows the room.
    #[allow(clippy::vec_init_then_push)]
    let (_, n) = allocations(|| {
        let mut v = Vec::with_capacity(1);
        v.push(1u8);
        v.push(2);
        std::hint::black_box(v)
    });
    assert_eq!(n, 2, "an allocation and a reallocation");
    let (_, n) = allocations(|| std::hint::black_box(3 + 4));
    assert_eq!(n, 0);
}
