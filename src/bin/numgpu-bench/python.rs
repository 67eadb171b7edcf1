//! The Python peers' runner: a script beside its bench (`expm_torch.py`, `tensor_torch.py`),
//! compiled into the binary, is written to a temporary file and run with python3; it prints one
//! JSON object, `{"error": why}` where it cannot run (torch or CUDA absent). A peer that does
//! not run is skipped with a note in its rows ([`skipped`]), never a failure.

use serde_json::Value;

/// Runs `script` (its file name `name`, for messages) with python3 and `args`: the JSON object
/// it printed on its last line of output, or why not (python3 absent, the script's error, no
/// JSON).
pub fn run(name: &str, script: &str, args: &[String]) -> Result<Value, String> {
    let path = std::env::temp_dir().join(format!("numgpu-bench-{}-{name}", std::process::id()));
    std::fs::write(&path, script).map_err(|e| format!("writing {}: {e}", path.display()))?;
    let out = std::process::Command::new("python3").arg(&path).args(args).output();
    let _ = std::fs::remove_file(&path);
    let out = out.map_err(|e| format!("python3 not runnable: {e}"))?;
    parse(name, &String::from_utf8_lossy(&out.stdout), &String::from_utf8_lossy(&out.stderr))
}

/// The JSON object on the last line of `stdout`, or why not: its `error`, else what the script
/// said (its standard error's last line where it died).
fn parse(name: &str, stdout: &str, stderr: &str) -> Result<Value, String> {
    let last = stdout.trim().lines().last().unwrap_or("");
    match serde_json::from_str::<Value>(last) {
        Ok(v) if v.is_object() => match v["error"].as_str() {
            Some(e) => Err(e.to_string()),
            None => Ok(v),
        },
        _ => Err(format!("{name} said: {} {}", last, stderr.trim().lines().last().unwrap_or("")).trim_end().to_string()),
    }
}

/// A row's note for a peer that did not run.
pub fn skipped(peer: &str, why: &str) -> String {
    format!("{peer} peer skipped: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last line's object; its error; anything else is what the script said.
    #[test]
    fn parses_the_last_json_line() {
        assert_eq!(parse("p.py", "warming up\n{\"ms\": 1.5}\n", "").unwrap()["ms"], 1.5);
        assert_eq!(parse("p.py", "{\"error\": \"torch sees no CUDA device\"}", ""), Err("torch sees no CUDA device".into()));
        assert_eq!(parse("p.py", "", "Traceback\nValueError: bad"), Err("p.py said:  ValueError: bad".into()));
        assert_eq!(parse("p.py", "[1]", ""), Err("p.py said: [1]".into()));
        assert_eq!(skipped("torch", "python3 not runnable"), "torch peer skipped: python3 not runnable");
    }

    /// A script that runs: its arguments reach it, its object comes back (skipped without
    /// python3).
    #[test]
    fn runs_a_script_with_its_arguments() {
        if std::process::Command::new("python3").arg("-c").arg("").status().is_err() {
            return;
        }
        let v = run("echo.py", "import json, sys\nprint(json.dumps({'args': sys.argv[1:]}))\n", &["a b".into(), "2".into()]).unwrap();
        assert_eq!(v["args"], serde_json::json!(["a b", "2"]));
        assert_eq!(run("fail.py", "raise SystemExit('no luck')\n", &[]), Err("fail.py said:  no luck".into()));
    }
}
