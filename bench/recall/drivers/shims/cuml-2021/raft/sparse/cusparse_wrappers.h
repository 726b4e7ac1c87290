// Stand-in for raft (2021)'s host-only cuSPARSE wrappers, which call APIs CUDA 12 removed; the device code analysed needs none of them, the handle only the check macro.
#pragma once
#include <raft/error.hpp>
#include <cusparse_v2.h>
#ifndef CUSPARSE_CHECK
#define CUSPARSE_CHECK(call) ((void)(call))
#endif
#ifndef CUSPARSE_CHECK_NO_THROW
#define CUSPARSE_CHECK_NO_THROW(call) ((void)(call))
#endif
