# Trusted Python run by kevin-worker before any candidate or task code: it
# captures the functions the worker needs and replaces load_inline/load by
# kevin's builder. Embedded into the worker at build time (see CMakeLists).
import importlib.machinery
import importlib.util
import json
import os
import sys
import traceback
import warnings

import contextlib
import io

import torch

import _kevin_build


def _cpp_extension():
    """torch.utils.cpp_extension, imported only by the candidate worker (it
    is slow to import). It prints a CUDA notice on CPU-only machines: keep it
    out of the stderr that crash messages quote."""
    with contextlib.redirect_stderr(io.StringIO()):
        import torch.utils.cpp_extension as module
    return module


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _import_extension(name, path):
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load_inline(name, cpp_sources, cuda_sources=None, functions=None,
                extra_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
                extra_include_paths=None, build_directory=None, verbose=False,
                with_cuda=None, is_python_module=True,
                with_pytorch_error_handling=True, keep_intermediates=True,
                **ignored):
    if functions is None:
        pairs = []
    elif isinstance(functions, str):
        pairs = [(functions, functions)]
    elif isinstance(functions, dict):
        pairs = [(str(k), str(v)) for k, v in functions.items()]
    else:
        pairs = [(str(f), str(f)) for f in functions]
    path = _kevin_build.build(
        str(name), _as_list(cpp_sources), _as_list(cuda_sources), pairs,
        _as_list(extra_cflags), _as_list(extra_cuda_cflags),
        _as_list(extra_ldflags), _as_list(extra_include_paths),
        bool(with_pytorch_error_handling), False)
    return _import_extension(str(name), path)


def load(name, sources, extra_cflags=None, extra_cuda_cflags=None,
         extra_ldflags=None, extra_include_paths=None, build_directory=None,
         verbose=False, with_cuda=None, is_python_module=True,
         is_standalone=False, keep_intermediates=True, **ignored):
    cpp, cuda = [], []
    for source in _as_list(sources):
        with open(source) as handle:
            (cuda if source.endswith((".cu", ".cuh")) else cpp).append(handle.read())
    path = _kevin_build.build(
        str(name), cpp, cuda, [], _as_list(extra_cflags),
        _as_list(extra_cuda_cflags), _as_list(extra_ldflags),
        _as_list(extra_include_paths), True, True)
    return _import_extension(str(name), path)


def install_builder():
    module = _cpp_extension()
    module.load_inline = load_inline
    module.load = load


def toolchain():
    """What kevin's builder needs to know about this torch."""
    root = os.path.dirname(torch.__file__)
    include = os.path.join(root, "include")
    dirs = [include, os.path.join(include, "torch", "csrc", "api", "include")]
    cuda_home = getattr(_cpp_extension(), "CUDA_HOME", None) or ""
    if cuda_home:
        dirs.append(os.path.join(cuda_home, "include"))
    import sysconfig
    defines = []
    for key in ("COMPILER_TYPE", "STDLIB", "BUILD_ABI"):
        value = getattr(torch._C, "_PYBIND11_" + key, None)
        if value is not None:
            defines.append('-DPYBIND11_%s="%s"' % (key, value))
    return {
        "include_dirs": dirs,
        "python_include": sysconfig.get_path("include", scheme="posix_prefix") or "",
        "lib_dir": os.path.join(root, "lib"),
        "version": torch.__version__,
        "cxx_abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI),
        "pybind11_defines": defines,
        "cuda_home": cuda_home,
    }


def cuda_capability(device):
    """The compute capability of device (the current CUDA device for
    "cpu") as nvidia-smi writes it ("9.0"), "" without one. Asking torch
    initialises CUDA in the worker, so a worker asks only when its parent
    could not tell (kevin/Support/CudaArch.h), at its first CUDA build."""
    if not torch.cuda.is_available():
        return ""
    dev = torch.device(device) if device.startswith("cuda") else None
    major, minor = torch.cuda.get_device_capability(dev)
    return "%d.%d" % (major, minor)


def import_file(module_name, path):
    """Imports the Python source file at path, whatever its name ends in (a
    task or candidate need not end in .py)."""
    loader = importlib.machinery.SourceFileLoader(module_name, path)
    spec = importlib.util.spec_from_file_location(module_name, path,
                                                  loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def describe(exc, path, display, trace=None):
    """`Type: message (at cand.py:LINE in fn)`, the frame nearest the error
    that lies in the given file."""
    text = "%s: %s" % (type(exc).__name__, str(exc).strip())
    where = ""
    for frame in traceback.extract_tb(trace or exc.__traceback__):
        if frame.filename == path:
            where = " (at %s:%d in %s)" % (display, frame.lineno, frame.name)
    return (text + where).replace(path, display)


def _too_deep_line(source, path):
    """The first line at which the file becomes too deep for Python's compiler
    (the shortest prefix of lines that raises RecursionError, by bisection)."""
    lines = source.splitlines(keepends=True)
    low, high = 1, max(len(lines), 1)
    while low < high:
        middle = (low + high) // 2
        try:
            compile(b"".join(lines[:middle]), path, "exec")
            low = middle + 1
        except RecursionError:
            high = middle
        except (SyntaxError, ValueError, MemoryError):
            low = middle + 1
    return high


def check_syntax(path):
    """None when the file compiles as Python, else `line:col: message`: a
    syntax error, a NUL byte, or an expression nested deeper than Python's
    compiler goes (at the line where it ends)."""
    with open(path, "rb") as handle:
        source = handle.read()
    try:
        compile(source, path, "exec")
    except SyntaxError as err:
        return "%d:%d: %s" % (err.lineno or 0, err.offset or 0, err.msg)
    except ValueError as err:
        return "1:1: %s" % err
    except (RecursionError, MemoryError):
        return ("%d:1: the code is nested too deeply for Python to compile"
                % _too_deep_line(source, path))
    return None


_timing_stream = None


def use_timing_stream(device):
    """Makes the device's legacy default stream current and returns its
    cudaStream_t as an integer (0). kevin times on it: kernels launched with
    no stream argument run there, as do those on the current stream, while
    work on a stream made with cudaStreamNonBlocking (torch.cuda.Stream, the
    pool's streams) escapes the events and is caught by the device-wide
    synchronize and the launch cover's time."""
    global _timing_stream
    index = torch.device(device).index
    if index is None:
        index = torch.cuda.current_device()
    torch.cuda.set_device(index)
    _timing_stream = torch.cuda.default_stream(index)
    torch.cuda.set_stream(_timing_stream)
    return int(_timing_stream.cuda_stream)


def device_info(device):
    """What the timing report says about the device and the software."""
    info = {"torch": torch.__version__, "cuda": torch.version.cuda or ""}
    dev = torch.device(device)
    if dev.type == "cuda":
        props = torch.cuda.get_device_properties(dev)
        info["device_name"] = props.name
        info["l2_bytes"] = int(getattr(props, "L2_cache_size", 0) or 0)
        info["sm_count"] = int(props.multi_processor_count)
        major, minor = torch.cuda.get_device_capability(dev)
        info["capability"] = "%d.%d" % (major, minor)
    else:
        info["threads"] = torch.get_num_threads()
    return info


def compile_model(model):
    """The torch.compile baseline (torch 2.x)."""
    if not hasattr(torch, "compile"):
        raise RuntimeError("torch %s has no torch.compile: the 'compile' "
                           "baseline needs torch 2.x" % torch.__version__)
    return torch.compile(model)


def fresh_placement(model, pool, device, round_index):
    """kevin-bench's timing round round_index (1 after the first): the pool's
    tensors cloned and a copy of the model, both in new allocations made
    after a spacer that differs from round to round, so that the round does
    not inherit the memory placement of the ones before. On CUDA the caching
    allocator first gives its free blocks back to the device (the caller has
    freed the last round's copies and its L2 flush), and the spacer grows by
    a GiB a round (at most a quarter of the device's free memory): the
    copies, and what the model allocates in the round (its outputs), then
    lie in device memory the rounds before did not use. Returns (model,
    pool, spacer); a model that cannot be copied is reused as it is."""
    spacer_bytes = (2 * round_index + 1) << 20
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()
        free_bytes = torch.cuda.mem_get_info(device)[0]
        spacer_bytes += min(round_index << 30, free_bytes // 4)
    spacer = torch.empty(spacer_bytes, dtype=torch.uint8, device=device)
    fresh = [[a.clone() if isinstance(a, torch.Tensor) else a for a in args]
             for args in pool]
    try:
        import copy
        return copy.deepcopy(model), fresh, spacer
    except Exception:
        return model, fresh, spacer


def draw_inputs(get_inputs, device, seed):
    """The task's get_inputs() drawn from `seed`, with its factory calls
    (randn, rand, ...) on `device` when that is a CUDA device and torch can
    make it the default: at gpu-profile sizes the CPU's generators take about
    a second per 512 MB tensor, the GPU's a millisecond. A task whose draws
    cannot run that way (a CPU generator, numpy) draws on the CPU from the
    same seed."""
    torch.manual_seed(seed)
    if device.startswith("cuda") and hasattr(torch, "set_default_device"):
        try:
            with torch.device(device):
                return get_inputs()
        except Exception:
            torch.manual_seed(seed)
    return get_inputs()


def held_out_batch_size(task):
    """KEVIN-RT-022's held-out shape: the batch size a held-out trial draws
    with, half the task's module-level `batch_size` (2 for a batch of 1), or
    0 when the task has no such integer."""
    size = getattr(task, "batch_size", None)
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        return 0
    return size // 2 if size >= 2 else 2


def draw_inputs_with_batch(task, device, seed, size):
    """draw_inputs with the task module's `batch_size` set to `size` while
    get_inputs() runs (the task's code reads it from its module)."""
    nominal = task.batch_size
    task.batch_size = size
    try:
        return draw_inputs(task.get_inputs, device, seed)
    finally:
        task.batch_size = nominal


# Heavy-tailed trials (KEVIN-RT-022): every element of a floating-point
# input that holds negative values (a symmetric draw such as randn) is
# multiplied by exp(s*z - s*s), z standard normal from the trial's secret
# seed. The factor is positive (signs and zeros stay), its root mean square
# is 1 (the scale stays), and s = 1.5 puts a few elements 100 to 1000 times
# away from the rest: a mean over a subsample, a clamp or a shortcut tuned to
# Gaussian inputs no longer passes. Inputs without negative values (rand,
# probabilities, variances) stay as drawn: their domain is often bounded.
HEAVY_TAIL_SIGMA = 1.5


def heavy_tailed(inputs, seed):
    """The trial's inputs with heavy-tailed magnitudes (see above); other
    tensors and values are returned as they are. None when no input is one
    the transform applies to."""
    out, changed = [], False
    for index, value in enumerate(inputs):
        if (isinstance(value, torch.Tensor) and value.is_floating_point()
                and not value.is_complex() and bool((value < 0).any())):
            generator = torch.Generator(device=value.device)
            generator.manual_seed((seed + 7919 * index) % (1 << 63))
            z = torch.randn(value.shape, generator=generator,
                            device=value.device, dtype=torch.float32)
            factor = torch.exp(z * HEAVY_TAIL_SIGMA
                               - HEAVY_TAIL_SIGMA * HEAVY_TAIL_SIGMA)
            value = (value.float() * factor).to(value.dtype)
            changed = True
        out.append(value)
    return out if changed else None


def no_tf32():
    """Float32 matmuls and convolutions in float32, not TF32. (torch 2.9 and
    later also name this fp32_precision; allow_tf32 is what kevin has run on
    torch 1.13 and 2.11.)"""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def float64_model(model):
    """A float64 copy of the reference model (KEVIN-RT-023), or None when the
    model cannot be copied or converted."""
    import copy
    try:
        return copy.deepcopy(model).double()
    except Exception:
        return None


# Captured before any candidate code runs (a candidate that replaces
# torch.profiler's attributes later does not reach these).
_profiler = getattr(torch, "profiler", None)
_profile = getattr(_profiler, "profile", None)
_activity = getattr(_profiler, "ProfilerActivity", None)
_cuda_device_type = getattr(getattr(torch.autograd, "DeviceType", None),
                            "CUDA", None)


def _profiler_usable():
    return _profile is not None and _activity is not None


def warm_profiler():
    """Starts torch's profiler once and stops it: its first start in a
    process costs seconds (CUPTI's set-up; 4.6 s on the H200 machine), which
    the worker pays while the reference still runs, not in the profiled
    forward."""
    if not _profiler_usable():
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with _profile(activities=[_activity.CUDA]):
                pass
    except Exception:
        pass


def profile_kernels(model, args):
    """KEVIN-RT-009: a checked forward under torch's profiler. Returns the
    forward's output and the GPU work the profiler recorded as [name,
    microseconds] pairs (kernels, memcpys, memsets), or in its place a
    string saying why the profiler could not be used (the forward then runs
    unprofiled). Exceptions of the forward itself propagate."""
    if not _profiler_usable():
        return model(*args), "torch %s has no torch.profiler" % torch.__version__
    torch.cuda.synchronize()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            prof = _profile(activities=[_activity.CPU, _activity.CUDA])
            prof.__enter__()
        except Exception as err:
            return model(*args), "the profiler did not start: %s" % err
        try:
            out = model(*args)
            torch.cuda.synchronize()
        finally:
            try:
                prof.__exit__(None, None, None)
            except Exception:
                pass
    try:
        events = prof.events()
    except Exception as err:
        return out, "the profiler's events could not be read: %s" % err
    work = [[e.name, float(e.time_range.elapsed_us())] for e in events
            if _cuda_device_type is not None
            and getattr(e, "device_type", None) == _cuda_device_type]
    if not work:  # older torch: kernels hang on the CPU events that ran them
        work = [[k.name, float(k.duration)]
                for e in events for k in getattr(e, "kernels", [])]
    return out, work


# Taken before any candidate code runs, as the profiler's are.
_memory_snapshot = getattr(torch.cuda, "memory_snapshot", None)
_empty = torch.empty
_uint8 = torch.uint8


def poison_cuda_cache(device, reserve):
    """KEVIN-RT-005 on CUDA: fills every free block the caching allocator
    holds for the device with 0xff bytes (NaN in every floating-point
    format), so an output element a kernel never writes reads NaN instead
    of whatever the block held. Each free block is taken by an allocation of
    its own size (the allocator's best fit is that block), filled, and given
    back. So that outputs come from filled blocks rather than from new
    memory, the free large blocks are topped up to `reserve` bytes and the
    small ones (under 1 MiB) to 4 MiB by filled allocations given back too.
    False when this torch cannot list its blocks."""
    if _memory_snapshot is None:
        return False
    index = torch.device(device).index
    if index is None:
        index = torch.cuda.current_device()
    held = []

    def take(size):
        taken = _empty(size, dtype=_uint8, device=device)
        taken.fill_(255)
        held.append(taken)

    try:
        free_large = free_small = 0
        for segment in _memory_snapshot():
            if segment.get("device") != index:
                continue
            small = segment.get("segment_type") == "small"
            for block in segment.get("blocks", []):
                size = block.get("size", 0)
                if block.get("state") == "inactive" and size > 0:
                    take(size)
                    if small:
                        free_small += size
                    else:
                        free_large += size
        if free_large < reserve:
            take(reserve - free_large)
        while free_small < 4 << 20:
            take(1 << 20)
            free_small += 1 << 20
    except Exception:
        return False
    finally:
        del held[:]
    return True


def noop(*args):
    """The empty call the timer calibrates its synchronize overhead on."""
    return None


to_json = json.dumps
from_json = json.loads
manual_seed = torch.manual_seed
no_grad = torch.no_grad
cuda_synchronize = torch.cuda.synchronize
