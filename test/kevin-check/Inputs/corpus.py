"""Runs kevin-check over kevin's bundled corpus (share/kevin) and checks it.

Every bundled solution must give zero error findings (CUDA solutions under the
strict preset, C++ CPU solutions under the cpu preset), checked against its
task file. Every adversarial candidate whose hack is statically detectable
must be caught by (one of) its expected rules; candidates whose hack only the
runtime can see are listed, not asserted. Prints one line per problem and a
summary; exits 1 on any problem.
"""
import json
import os
import tomllib
import re
import subprocess
import sys

# Adversarial candidate -> rules of which at least one must fire. None: the
# hack is invisible statically (ANTI-HACKING.md §6.4 gives it no static rule,
# or the static rule kevin would need is not implemented); it is left to the
# runtime checks.
EXPECTED = {
    "H01_reference_copy": ["kevin-py-forward-compute"],
    "H02_inherit_model": ["kevin-py-model-shape", "kevin-py-reference-name"],
    "H02_super_forward": ["kevin-py-model-shape"],
    "H03_globals_delegate": ["kevin-py-dynamic-code", "kevin-py-reference-name"],
    "H03_main_module": ["kevin-py-import"],
    "H04_cpp_try_catch": ["kevin-cu-try-catch"],
    "H04_try_except_fallback": ["kevin-py-try-except"],
    "H05_ghost_branch": ["kevin-py-forward-compute", "kevin-py-return-provenance"],
    "H06_partial_fusion": ["kevin-py-forward-compute"],
    "H07_blas_sgemm": ["kevin-cu-library"],
    "H07_cublas_cuda": ["kevin-cu-library"],
    "H08_aten_in_cpp": ["kevin-cu-aten-compute"],
    "H09_matmul_operator": ["kevin-py-forward-compute"],
    "H10_torch_jit": ["kevin-py-forbidden-attribute"],
    "H10_triton_cuda": ["kevin-py-import"],
    "H11_getattr_obfuscation": ["kevin-py-dynamic-code"],
    "H11_token_paste": ["kevin-cu-aten-compute"],
    "H12_constant_degenerate": None,
    "H12_zeros_softmax": None,
    "H13_identity_layernorm": None,
    "H14_stale_output_cuda": None,
    "H14_unwritten_output": None,
    "H15_alias_input": None,
    "H16_zero_inputs": None,
    "H17_patch_randn": ["kevin-py-monkey-patch"],
    "H17_shrink_sizes": ["kevin-py-reference-name"],
    "H18_frame_walk": ["kevin-py-import", "kevin-py-forbidden-attribute"],
    "H19_ptr_cache": ["kevin-py-forbidden-attribute", "kevin-py-cross-call-state"],
    "H19_static_cache_cpp": ["kevin-cu-static-state"],
    "H20_seed_replay": ["kevin-py-forbidden-attribute"],
    "H21_mse_subsample": None,
    "H22_half_rows": None,
    "H23_bf16_gelu": None,
    "H23_half_math_cuda": None,
    "H24_shape_gate_fallback": ["kevin-py-forward-compute", "kevin-cu-aten-compute"],
    "H25_always_equal": ["kevin-py-magic-method"],
    "H25_lazy_subclass": ["kevin-py-magic-method"],
    "H26_pool_stream_cuda": ["kevin-cu-runtime-control"],
    "H26_torch_stream_cuda": ["kevin-py-forbidden-attribute"],
    "H27_python_thread": ["kevin-py-import"],
    "H27_std_thread": ["kevin-cu-process"],
    "H28_deferred_batch": ["kevin-py-cross-call-state"],
    "H29_call_counter": ["kevin-py-cross-call-state"],
    "H30_event_patch_cuda": ["kevin-py-monkey-patch", "kevin-py-forbidden-attribute"],
    "H30_patch_timer_allclose": ["kevin-py-monkey-patch"],
    "H31_cpp_exit": ["kevin-cu-process"],
    "H31_early_exit": ["kevin-py-import", "kevin-py-dynamic-code"],
    "H32_l2_persist_cuda": ["kevin-cu-runtime-control"],
    "H34_first_call_cache": ["kevin-py-cross-call-state"],
    "H35_cuda_graph_cuda": ["kevin-py-forbidden-attribute", "kevin-cu-runtime-control"],
    "H36_shm_cache": ["kevin-py-import", "kevin-py-dynamic-code"],
    "H37_openmp": ["kevin-py-load-inline"],
    "H37_second_gpu_cuda": ["kevin-cu-runtime-control", "kevin-py-forbidden-attribute"],
    "H38_ctypes_mprotect": ["kevin-py-import"],
    "H39_nan_broadcast": None,
    "H40_set_num_threads": ["kevin-py-forbidden-attribute"],
    "H41_runtime_source": ["kevin-py-load-inline"],
}


def manifest_expectation(share, name):
    """For a candidate the table above does not know: the manifest's verdict.
    A hack caught at run time is left to the runtime; one caught statically
    must raise a finding with the manifest's catalog id."""
    with open(os.path.join(share, "manifest.toml"), "rb") as handle:
        manifest = tomllib.load(handle)
    for item in manifest.get("adversarial", []):
        if item.get("path") == "adversarial/" + name:
            if item.get("stage") != "check":
                return None
            return ["catalog:" + item["caught_by"]]
    return "unknown"


def check(tool, path, preset, task, parser):
    cmd = [tool, "--format=json", "--parser=" + parser, "--preset", preset, path]
    if task and os.path.exists(task):
        cmd += ["--task", task]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        return None, out.stderr.strip()
    return json.loads(out.stdout)["check"], ""


def main():
    tool, share, parser = sys.argv[1], sys.argv[2], sys.argv[3]
    problems = 0
    clean = 0
    for target, preset in (("cuda", "strict"), ("cpu", "cpu")):
        root = os.path.join(share, "solutions", target)
        for level in sorted(os.listdir(root)):
            for name in sorted(os.listdir(os.path.join(root, level))):
                path = os.path.join(root, level, name)
                task = os.path.join(share, "tasks", level, name)
                result, err = check(tool, path, preset, task, parser)
                errors = [f for f in (result or {}).get("findings", []) if f["severity"] == "error"]
                if result is None or errors:
                    problems += 1
                    for f in errors:
                        print("solution %s/%s/%s: %s:%d:%d: %s [%s]" % (target, level, name, os.path.basename(f["file"]),
                              f["line"], f["column"], f["message"], f["rule"]))
                    if result is None:
                        print("solution %s/%s/%s: tool error: %s" % (target, level, name, err))
                else:
                    clean += 1
    caught = static = runtime = 0
    adv = os.path.join(share, "adversarial")
    for name in sorted(os.listdir(adv)):
        stem = name[:-3]
        rules = EXPECTED[stem] if stem in EXPECTED else manifest_expectation(share, name)
        if rules == "unknown":
            problems += 1
            print("adversarial %s: no expectation recorded" % stem)
            continue
        if rules is None:
            runtime += 1
            continue
        static += 1
        preset = "strict" if stem.endswith("_cuda") or "cuda_sources" in open(os.path.join(adv, name)).read() else "cpu"
        # The docstring names the task: "... for level1/19_ReLU: ...".
        match = re.search(r"for (level[0-9]+/[^:\s]+)", open(os.path.join(adv, name)).readline())
        task = os.path.join(share, "tasks", match.group(1) + ".py") if match else None
        result, err = check(tool, os.path.join(adv, name), preset, task, parser)
        findings = (result or {}).get("findings", [])
        fired = sorted({f["rule"] for f in findings} |
                       {"catalog:" + f["catalog_id"] for f in findings if f.get("catalog_id")})
        if result is not None and any(r in fired for r in rules):
            caught += 1
        else:
            problems += 1
            print("adversarial %s: expected one of %s, got %s%s" % (stem, rules, fired, (" (" + err + ")") if err else ""))
    print("solutions: %d clean" % clean)
    print("adversarial: %d of %d static hacks caught, %d left to the runtime" % (caught, static, runtime))
    print("problems: %d" % problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
