// kevin's lean torch/extension.h for CUDA units (lib/Build/Builder.cpp)
#pragma once
#include <torch/types.h>
