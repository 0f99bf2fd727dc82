//! CPU time: of the calling thread, of the process, and of the calling thread inside
//! read and write calls. Unlike wall time it does not run while a thread waits for a
//! core, so another process hogging the machine moves it much less.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Nanoseconds of CPU time this thread has used (0 where it cannot be read).
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// Nanoseconds of CPU time all of this process's threads have used (0 where it cannot
/// be read).
pub fn process_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// Nanoseconds on the monotonic clock (`Instant`'s), read with no conversion: the
/// harness times every solver call with two of these.
#[inline]
pub fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

#[inline]
fn clock_ns(clock: libc::clockid_t) -> u64 {
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

/// The calling thread kept on the core it runs on, until dropped (the thread's CPU
/// mask is then restored). Programs it starts meanwhile inherit the mask: a foreign
/// program measured against a built-in backend runs on the same core as the thread
/// that measures the built-in one (on a VM, two cores' speeds differ by up to 15% over
/// minutes, which pairing in time does not cancel).
pub struct Pinned {
    #[cfg(target_os = "linux")]
    saved: Option<libc::cpu_set_t>,
}

impl Pinned {
    pub fn here() -> Pinned {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: sched_getcpu takes nothing; the cpu_set_t values are plain data
            // written and read through valid pointers of their own size; pid 0 is the
            // calling thread.
            unsafe {
                let cpu = libc::sched_getcpu();
                let mut saved: libc::cpu_set_t = std::mem::zeroed();
                let size = std::mem::size_of::<libc::cpu_set_t>();
                // A core beyond what a cpu_set_t holds cannot be named in one.
                if cpu < 0
                    || cpu as usize >= 8 * size
                    || libc::sched_getaffinity(0, size, &mut saved) != 0
                {
                    return Pinned { saved: None };
                }
                let mut one: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(cpu as usize, &mut one);
                match libc::sched_setaffinity(0, size, &one) {
                    0 => Pinned { saved: Some(saved) },
                    _ => Pinned { saved: None },
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        Pinned {}
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(saved) = &self.saved {
            // SAFETY: restores the mask read in `here`, for the calling thread.
            unsafe {
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), saved);
            }
        }
    }
}

/// The CPU time the serial thread spends in the reads of a run's input and the writes of
/// its output (the kernel copying the bytes, mostly), which `solve -v` reports: the
/// reader and the writer share it. Two clock reads a call of up to 64 KiB, each a
/// system call, so kept only when asked.
#[derive(Clone, Debug, Default)]
pub struct IoTime(Arc<AtomicU64>);

impl IoTime {
    pub fn ns(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs one read or write, its CPU time added to `clock` where there is one.
#[inline]
pub fn timed_io<T>(clock: Option<&IoTime>, call: impl FnOnce() -> T) -> T {
    let Some(clock) = clock else {
        return call();
    };
    let start = thread_cpu_ns();
    let out = call();
    let took = thread_cpu_ns().saturating_sub(start);
    clock.0.fetch_add(took, Ordering::Relaxed);
    out
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

    #[test]
    fn io_time_is_counted_inside_the_calls_only() {
        use std::io::Read;
        let mut file = std::fs::File::open("/dev/zero").unwrap();
        let mut buf = vec![0u8; 1 << 20];
        let clock = super::IoTime::default();
        let (cpu, io) = (super::thread_cpu_ns(), clock.ns());
        for _ in 0..64 {
            super::timed_io(Some(&clock), || file.read_exact(&mut buf)).unwrap();
        }
        let io_then = clock.ns();
        // Work outside the calls is not counted.
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let cpu = super::thread_cpu_ns() - cpu;
        assert!(io_then > io, "64 MiB copied from /dev/zero took no time");
        assert_eq!(clock.ns(), io_then);
        assert!(io_then - io <= cpu);
    }
}
