#pragma once
#include <ATen/ATen.h>
