// A backend call's answer, waited for: what tests that drive a backend
// directly (not through a model) need to read one result.
#pragma once

#include "services/api/Result.h"

#include <QFuture>

namespace md::test {

template <typename T> api::Result<T> await(QFuture<api::Result<T>> future)
{
    future.waitForFinished();
    return future.result();
}

} // namespace md::test
