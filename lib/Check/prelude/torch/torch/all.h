#pragma once
#include <torch/types.h>
