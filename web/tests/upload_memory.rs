//! An upload too large to import is refused without being parsed whole (docs/web.md, "Threats
//! and what holds"). Its own test binary: the allocator below counts every allocation of the
//! process, so nothing else may run beside it.

use actix_web::{test, App};
use paifu_recorder::archive::{Archive, Role};
use paifu_web::{routes, state, Config};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system's allocator, keeping the bytes in use and the most in use since the last reset.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes in use while `f` runs, beyond those in use when it began.
async fn peak_during<T>(f: impl std::future::Future<Output = T>) -> (T, usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f.await;
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

#[actix_web::test]
async fn an_upload_too_large_to_import_is_refused_without_being_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    let token = Archive::open(&db).unwrap().create_token("uma", Role::Uploader).unwrap().secret;
    let app = test::init_service(App::new().app_data(state(Config::new(&db)).unwrap()).configure(routes)).await;
    // 8 MiB (the default --max-upload) that read as a tenhou.net/6 record (an object with a
    // `log`) and as mjai events (lines with a `type`): numbers, the most JSON values per byte.
    let numbers = |n: usize| vec!["0"; n].join(",");
    let tenhou = format!("{{\"log\":[[{}]]}}", numbers((4 << 20) - 16)).into_bytes();
    let line = format!("{{\"type\":\"start_game\",\"x\":[{}]}}\n", numbers(64 << 10));
    let mjai = line.repeat(tenhou.len() / line.len()).into_bytes();
    for (what, bytes) in [("tenhou.net/6", tenhou), ("mjai", mjai)] {
        let size = bytes.len();
        assert!(size > 7 << 20 && size <= paifu_web::DEFAULT_MAX_UPLOAD, "{size}");
        let req = test::TestRequest::post()
            .uri("/api/upload")
            .insert_header(("authorization", format!("Bearer {token}")))
            .set_payload(bytes)
            .to_request();
        let (resp, peak) = peak_during(test::call_service(&app, req)).await;
        assert_eq!(resp.status(), 413, "{what}");
        let body = String::from_utf8(test::read_body(resp).await.to_vec()).unwrap();
        assert!(body.contains("game records are imported up to"), "{what}: {body}");
        // The body read (its bytes, and the buffer they were gathered in) and nothing of its
        // size more: a parsed tree of it would be 37 times as large.
        assert!(peak < 4 * size, "{what}: {size} bytes took {peak} bytes at most");
    }
}
