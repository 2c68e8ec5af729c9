#===-- kevin-work-dirs.sh - where kevin's work directories go (sourced) --===#
#
# Shell functions for the benchmark and GPU scripts, which run kevin on
# gpu-sized inputs: each candidate's work directory holds gigabytes of input
# sets and outputs.
#   kevin_fast_tmpdir            prints /dev/shm when it has 48 GiB free (on a
#                                disk, the kernel's writeback throttles those
#                                writes, and 16 jobs filled the H200's 64 GiB
#                                disk), else ${TMPDIR:-/tmp}
#   kevin_clear_stale_work_dirs KIND...
#                                removes the kevin-KIND.* work directories
#                                (bench, reference, run) that processes killed
#                                by a time limit left in ${TMPDIR:-/tmp}
#
# usage: . utils/kevin-work-dirs.sh
#===----------------------------------------------------------------------===#

kevin_fast_tmpdir() {
  if [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt $((48 * 1024 * 1024)) ] 2>/dev/null; then
    echo /dev/shm
  else
    echo "${TMPDIR:-/tmp}"
  fi
}

kevin_clear_stale_work_dirs() {
  local kind
  for kind in "$@"; do
    rm -rf "${TMPDIR:-/tmp}/kevin-$(id -u)/kevin-$kind."*
  done
}
