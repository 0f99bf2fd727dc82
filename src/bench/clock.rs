//! The CPU time of the calling thread: unlike wall time it does not run while the thread
//! waits for a core, so another process hogging the machine moves it much less.

/// Nanoseconds of CPU time this thread has used (0 where it cannot be read).
pub fn thread_cpu_ns() -> u64 {
    #[cfg(unix)]
    return cpu_clock_ns(libc::CLOCK_THREAD_CPUTIME_ID);
    #[cfg(not(unix))]
    0
}

/// Nanoseconds of CPU time all of this process's threads have used (0 where it cannot
/// be read).
pub fn process_cpu_ns() -> u64 {
    #[cfg(unix)]
    return cpu_clock_ns(libc::CLOCK_PROCESS_CPUTIME_ID);
    #[cfg(not(unix))]
    0
}

#[cfg(unix)]
fn cpu_clock_ns(clock: libc::clockid_t) -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(clock, &mut t) };
    if rc == 0 {
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_advances_with_work() {
        let a = super::thread_cpu_ns();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(super::thread_cpu_ns() > a);
    }
}
