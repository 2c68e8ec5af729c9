// kevin's minimal torch/extension.h (lib/Build/Builder.cpp)
#pragma once
#include <torch/types.h>
