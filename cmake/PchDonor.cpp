// Compiles nothing: it gives a group of test programs a target whose
// precompiled header they share (cmake/PrecompiledHeaders.cmake).
