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

/// Nanoseconds of CPU time this thread has spent in the kernel, on its behalf (system
/// calls, page faults): Linux only, 0 elsewhere or where it cannot be read. The kernel
/// splits a thread's time into user and system time at its accounting ticks, so a
/// difference is exact only to a tick or so.
pub fn thread_kernel_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes one rusage through a valid pointer.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
        if rc == 0 {
            let t = usage.ru_stime;
            return t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
        }
    }
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

    #[cfg(target_os = "linux")]
    #[test]
    fn kernel_time_is_part_of_the_thread_time() {
        // Work done in the kernel: system calls that copy bytes.
        let (cpu, kernel) = (super::thread_cpu_ns(), super::thread_kernel_ns());
        let mut file = std::fs::File::open("/dev/zero").unwrap();
        let mut buf = vec![0u8; 1 << 20];
        for _ in 0..200 {
            std::io::Read::read_exact(&mut file, &mut buf).unwrap();
        }
        let kernel = super::thread_kernel_ns() - kernel;
        assert!(kernel > 0);
        // The two are read apart and split at ticks: allow the kernel's tick, 10 ms.
        assert!(kernel <= super::thread_cpu_ns() - cpu + 10_000_000);
    }
}
