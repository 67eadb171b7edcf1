// Gives the shared library a SONAME (libnumgpu.so.MAJOR) so installed programs link against
// the ABI version, not the file name.
fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnumgpu.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
