# SPDX-License-Identifier: MIT
# Spack package of clbanks, the HPC sites' installer. Use it from this folder as a repository:
#   spack repo add packaging/spack   (repo.yaml there names the namespace)
#   spack install clbanks@main +lint ^pocl
# A release version goes in with the sha256 of its tarball (reproducible: make dist gives
# the same bytes from the same commit; sha256sum clbanks-X.Y.Z.tar.gz), e.g.
#   version("1.0.0", sha256="...")
# when the package is submitted to Spack's builtin repository.

from spack.package import *


class Clbanks(AutotoolsPackage):
    """Measure how an OpenCL device's __local memory is banked: banks, bank width,
    lanes served per pass, broadcast and the cost of a conflict; predict and lint
    OpenCL kernels' bank conflicts against the measured or installed models."""

    homepage = "https://github.com/clbanks/clbanks"
    url = "https://github.com/clbanks/clbanks/releases/download/v1.0.0/clbanks-1.0.0.tar.gz"
    git = "https://github.com/clbanks/clbanks.git"

    license("MIT")

    version("main", branch="main")

    variant("lint", default=True, description="clbanks lint (LLVM's C API and its clang)")

    # Any OpenCL provider (pocl for CPUs, cuda, rocm-opencl, intel-oneapi-runtime...): clbanks
    # links the ICD loader's libOpenCL and measures whatever device the provider offers.
    depends_on("opencl")
    depends_on("opencl-c-headers", type="build")
    depends_on("jansson@2.11:")
    depends_on("pkgconfig", type="build")
    # lint links LLVM 14 or later and runs the clang of the same version.
    depends_on("llvm@14: +clang", when="+lint")
    # The git tree has no configure (the release tarball has).
    depends_on("autoconf", type="build", when="@main")
    depends_on("automake", type="build", when="@main")
    depends_on("m4", type="build", when="@main")

    @when("@main")
    def autoreconf(self, spec, prefix):
        which("sh")("./autogen.sh")

    def configure_args(self):
        if self.spec.satisfies("+lint"):
            llvm = self.spec["llvm"]
            return ["--with-llvm=yes", "LLVM_CONFIG=" + join_path(llvm.prefix.bin, "llvm-config")]
        return ["--with-llvm=no"]

    def check(self):
        # The deterministic suite (no test asserts a timing); live tests skip without a device.
        make("check")
