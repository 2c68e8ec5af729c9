# -*- Python -*- lit configuration for kevin's regression tests.
#
# Features: `clang`, `torch` and `cuda-compiler` come from configure time
# (the parts that were built); `cuda-gpu` is detected now, when a GPU answers
# nvidia-smi, and `small-tmpfs` when a tmpfs can be mounted unprivileged. Subtrees that need a GPU say `config.unsupported = ...` in their
# lit.local.cfg, like LLVM's NVPTX tests do.
import os
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "kevin"
config.test_format = lit.formats.ShTest(not lit.util.which("bash"))
config.suffixes = [".test", ".py", ".cu", ".cpp", ".toml", ".jsonl"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "lit.local.cfg"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kevin_obj_root, "test")

for feature in config.kevin_configured_features:
    config.available_features.add(feature)


def gpu_present():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if gpu_present():
    config.available_features.add("cuda-gpu")


def small_tmpfs_mountable():
    """Whether a test can mount a small tmpfs in a user and mount namespace
    of its own (unshare -rm), to give kevin a disk that fills."""
    unshare = shutil.which("unshare")
    if not unshare:
        return False
    try:
        out = subprocess.run([unshare, "-rm", "sh", "-c",
                              "mount -t tmpfs -o size=1m tmpfs /mnt"],
                             capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0


# `small-tmpfs`: a test may mount a small tmpfs in namespaces of its own.
if small_tmpfs_mountable():
    config.available_features.add("small-tmpfs")

# Tools: kevin's own first, then LLVM's test tools (FileCheck, not, count,
# split-file) from llvm-14-tools, found through PATH.
path = os.pathsep.join([config.kevin_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# `chromium`: headless Chromium (Debian's package, from install-deps.sh)
# renders kevin report's HTML page in test/kevin-report.
if shutil.which("chromium", path=path):
    config.available_features.add("chromium")
# Tests must not depend on the developer's cache or terminal.
config.environment["KEVIN_CACHE_DIR"] = os.path.join(config.test_exec_root, "kevin-cache")
# Device locks of their own: tests share the CPU with each other, never
# with a developer's runs (kevin/Support/DeviceLock.h).
config.environment["KEVIN_LOCK_DIR"] = os.path.join(config.test_exec_root, "device-locks")
config.environment["NO_COLOR"] = "1"
config.environment["KEVIN_TASK_PROFILE"] = "small"

config.substitutions.append(("%kevin_tools_dir", config.kevin_tools_dir))
config.substitutions.append(("%kevin_src", config.kevin_src_root))
config.substitutions.append(("%share", os.path.join(config.kevin_src_root, "share", "kevin")))
config.substitutions.append(("%python", config.kevin_python))
config.substitutions.append(("%nvcc", config.kevin_nvcc))
