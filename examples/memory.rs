//! Peak memory of `myhill reduce` on a large input and on a test that prints a lot.
//!
//!     cargo build --release && cargo run --release --example memory [MB_INPUT] [MB_OUTPUT]
//!
//! Case 1: an input of MB_INPUT (default 50) megabytes of lines, one of which the test needs
//! (`grep -q`), reduced with `-j 2` and `-j 1`. Case 2: a one-line input whose test prints
//! MB_OUTPUT (default 200) megabytes per run, with `--stdout-regex` and with `--same-output`.
//! Prints the peak resident size of each myhill run (from the kernel's accounting of the
//! child) beside the target: at most 4 times the input plus 64 MB. Needs the release binary.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// Runs myhill with `args` in `dir`; returns its exit status and peak resident size in KiB.
fn peak(dir: &Path, args: &[&str]) -> (i32, i64) {
    let bin = std::env::current_dir()
        .unwrap()
        .join("target/release/myhill");
    // Reaped by wait4 below, which reports the child's own peak; std's wait would not.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(&bin)
        .args(args)
        .current_dir(dir)
        .spawn()
        .expect("target/release/myhill (cargo build --release)");
    let mut status = 0;
    // SAFETY: wait4 reaps our own child and fills the status and usage it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id() as i32, &mut status, 0, &mut usage);
        usage
    };
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number of megabytes"))
        .collect();
    let input_mb = args.first().copied().unwrap_or(50);
    let output_mb = args.get(1).copied().unwrap_or(200);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Written as a stream: a spawned child's peak counts this process's peak (the kernel
    // keeps the high-water mark across the exec), so this process must stay small.
    let mut input_len = 0usize;
    {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::fs::File::create(d.join("big.txt")).unwrap());
        let mut k = 0u64;
        while input_len < input_mb * 1_000_000 {
            let line = if k == 600_000 {
                "needle\n".to_string()
            } else {
                format!("line {k} {}\n", "x".repeat((k * 7919 % 71 + 10) as usize))
            };
            out.write_all(line.as_bytes()).unwrap();
            input_len += line.len();
            k += 1;
        }
    }
    script(d, "needle.sh", r#"grep -q '^needle$' "$1""#);
    let bound = |bytes: usize| (4 * bytes + (64 << 20)) / 1024;
    println!(
        "| case | jobs | input bytes | peak RSS (KiB) | target (KiB) | exit |\n|---|---|---|---|---|---|"
    );
    for jobs in ["2", "1"] {
        let (code, kib) = peak(
            d,
            &[
                "reduce",
                "-q",
                "-j",
                jobs,
                "./needle.sh",
                "big.txt",
                "-o",
                "out.txt",
            ],
        );
        println!(
            "| {input_mb} MB input, grep test | {jobs} | {input_len} | {kib} | {} | {code} |",
            bound(input_len)
        );
    }

    std::fs::write(d.join("small.txt"), b"ab xy cd\n").unwrap();
    script(
        d,
        "loud.sh",
        &format!(
            "grep -q xy \"$1\" || exit 1\nhead -c {} /dev/zero | tr '\\0' y\necho\necho MATCH",
            output_mb * 1_000_000
        ),
    );
    for signature in [&["--stdout-regex", "MATCH"][..], &["--same-output"]] {
        let mut args = vec![
            "reduce",
            "-q",
            "-j",
            "2",
            "./loud.sh",
            "small.txt",
            "-o",
            "o.txt",
        ];
        args.extend(signature);
        let (code, kib) = peak(d, &args);
        println!(
            "| {output_mb} MB printed per test, {} | 2 | 9 | {kib} | {} | {code} |",
            signature[0],
            bound(9)
        );
    }
}
