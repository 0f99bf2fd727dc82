//! Every HTML page (bench, bench --builds, compare) opened in headless
//! Chromium at 1,024 and 1,400 px: nothing may stick out of the page, every SVG text
//! lies inside its drawing and overlaps no other. The check is a script appended to the
//! test's copy of each page (the page itself stays script-free); it writes its verdict
//! into the DOM, which `--dump-dom` hands back.

use std::path::{Path, PathBuf};

use crate::common::sudoku_bench_in;
use crate::report::{browse, chromium, json, sample, slowed};

/// Measures the page as laid out and writes the problems found into `#fit-verdict`.
const CHECK: &str = r#"<script>
(function () {
  const bad = [], W = window.innerWidth, doc = document.documentElement;
  const what = el => el.tagName.toLowerCase() + (el.getAttribute('class') ? '.' + el.getAttribute('class') : '')
    + ' "' + (el.textContent || '').trim().slice(0, 50) + '"';
  if (doc.scrollWidth > W) bad.push('the page is ' + doc.scrollWidth + ' px wide in a ' + W + ' px window');
  const scrolled = el => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > W + 0.5 && !scrolled(el)) bad.push('sticks out (right edge ' + Math.round(r.right) + '): ' + what(el));
  }
  for (const svg of document.querySelectorAll('svg')) {
    const vb = svg.viewBox.baseVal, toSvg = svg.getScreenCTM().inverse();
    const boxes = [...svg.querySelectorAll('text')].map(t => {
      const b = t.getBBox(), m = toSvg.multiply(t.getScreenCTM());
      const xs = [], ys = [];
      for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
        xs.push(m.a * x + m.c * y + m.e); ys.push(m.b * x + m.d * y + m.f);
      }
      return { t, l: Math.min(...xs), r: Math.max(...xs), top: Math.min(...ys), bot: Math.max(...ys) };
    });
    for (const b of boxes) {
      if (b.l < vb.x - 0.5 || b.r > vb.x + vb.width + 0.5 || b.top < vb.y - 0.5 || b.bot > vb.y + vb.height + 0.5)
        bad.push('outside its svg (' + [b.l, b.top, b.r, b.bot].map(Math.round) + ' in ' + vb.width + 'x' + vb.height + '): ' + what(b.t));
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.bot, b.bot) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) bad.push('texts overlap: ' + what(a.t) + ' and ' + what(b.t));
    }
  }
  const out = document.createElement('pre');
  out.id = 'fit-verdict';
  out.textContent = 'FIT-BEGIN\n' + (bad.length ? bad.join('\n') : 'fits') + '\nHEIGHT ' + doc.scrollHeight + '\nFIT-END';
  document.body.appendChild(out);
})();
</script>"#;

/// The test's copy of `page` with the check appended; its policy lets inline scripts run.
fn with_check(page: &Path, dir: &Path) -> PathBuf {
    let html = std::fs::read_to_string(page).unwrap();
    for banned in ["<script", "<link", "src=", "https://", "@import"] {
        assert!(!html.contains(banned), "{} holds {banned}", page.display());
    }
    let policy = "default-src 'none'; style-src 'unsafe-inline'";
    assert!(html.contains(policy), "the page's policy changed");
    let html = html
        .replace(policy, &format!("{policy}; script-src 'unsafe-inline'"))
        .replace("</body>", &format!("{CHECK}</body>"));
    let name = page.file_name().unwrap().to_string_lossy();
    let copy = dir.join(format!("checked-{name}"));
    std::fs::write(&copy, html).unwrap();
    copy
}

/// Each page kind, written by the program into `dir`.
fn pages(dir: &Path) -> Vec<PathBuf> {
    sample(dir, 200, "d.txt");
    let bench = |extra: &[&str]| {
        sudoku_bench_in(dir)
            .args(["bench", "d.txt", "--backends", "dlx-static,dlx-arena"])
            .args(["--rounds", "3", "--no-progress"])
            .args(extra)
            .assert()
    };
    bench(&["--html", "bench.html", "--save-baseline", "one"]).success();
    bench(&["--html", "paired.html", "--builds"]);
    // The baseline's rounds twice as slow: regressed.
    let slow = slowed(&json(&dir.join("results/baselines/one.json")), 2);
    std::fs::write(dir.join("slow.json"), serde_json::to_vec(&slow).unwrap()).unwrap();
    sudoku_bench_in(dir)
        .args(["compare", "results/baselines/one.json", "slow.json"])
        .args(["--html", "compare.html"])
        .assert()
        .code(5);
    ["bench", "paired", "compare"]
        .iter()
        .map(|name| dir.join(format!("{name}.html")))
        .collect()
}

/// The check's verdict and the page's height, from a dumped DOM.
fn verdict(dom: &str) -> Option<(String, u32)> {
    let body = dom.split("FIT-BEGIN\n").nth(1)?.split("\nFIT-END").next()?;
    let (problems, height) = body.rsplit_once("\nHEIGHT ")?;
    Some((problems.to_string(), height.trim().parse().ok()?))
}

#[test]
fn every_page_fits_at_1024_and_1400_px() {
    let dir = tempfile::tempdir().unwrap();
    let pages = pages(dir.path());
    let compare = std::fs::read_to_string(&pages[2]).unwrap();
    let mut failures = Vec::new();
    if !compare.contains("regressed +100.0%") {
        failures.push("the compare page does not say the rounds took twice as long".to_string());
    }
    let Some(browser) = chromium() else {
        assert!(failures.is_empty(), "{failures:?}");
        if std::env::var_os("SUDOKU_BENCH_REQUIRE_BROWSER").is_some() {
            panic!("SUDOKU_BENCH_REQUIRE_BROWSER is set but no chromium was found");
        }
        eprintln!("skipped: chromium is not installed (Debian: apt-get install chromium)");
        return;
    };
    let shots = std::env::var_os("SUDOKU_BENCH_SCREENSHOT_DIR").map(PathBuf::from);
    let profile = dir.path().join("profile");
    for page in &pages {
        let checked = with_check(page, dir.path());
        let name = page.file_stem().unwrap().to_string_lossy().into_owned();
        for width in [1024, 1400] {
            let out = browse(
                &browser,
                &profile,
                (width, 900),
                &["--dump-dom".into()],
                &checked,
            );
            let dom = String::from_utf8_lossy(&out.stdout);
            let Some((problems, height)) = verdict(&dom) else {
                panic!("{name} at {width} px: no verdict in the DOM: {dom:.400}");
            };
            if problems != "fits" {
                failures.push(format!("{name} at {width} px:\n{problems}"));
            }
            if let Some(shots) = &shots {
                std::fs::create_dir_all(shots).unwrap();
                let shot = shots.join(format!("{name}-{width}.png"));
                let size = (width, height.clamp(600, 8000));
                let arg = format!("--screenshot={}", shot.display());
                browse(&browser, &profile, size, &[arg], page);
                let png = std::fs::read(&shot).expect("the browser wrote a screenshot");
                assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
