//===-- FreshMemoryPoison.h - fresh CPU memory holds a pattern -*- C++ -*-===//
//
// Private to lib/Exec: KEVIN-RT-005 on the CPU. The candidate worker turns
// the fill on; kevin-run counts the output elements that still hold the
// pattern, to tell the model which elements its kernel never wrote.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_FRESHMEMORYPOISON_H
#define KEVIN_LIB_EXEC_FRESHMEMORYPOISON_H

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace kevin {
namespace worker {

/// Makes c10's CPU allocator fill every new block with its junk pattern
/// (0x7fedbeef per 32 bits: NaN as float32, about 1.7e308 as float64);
/// false when this torch has no such switch.
bool poisonFreshCpuMemory();

/// The elements among Outputs (CPU tensors) whose bits are exactly a fill
/// pattern, which no arithmetic produces: the CPU allocator's (4- and 8-byte
/// types) or, in floating-point outputs, the all-ones bytes the CUDA worker
/// fills its allocator's free blocks with.
int64_t countFreshMemoryPattern(const std::vector<at::Tensor> &Outputs);

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_EXEC_FRESHMEMORYPOISON_H
