// A value or an ApiError: how every service call reports its outcome.
#pragma once

#include "services/api/ApiError.h"

#include <utility>
#include <variant>

namespace md::api {

template <typename T> class [[nodiscard]] Result final
{
public:
    Result(T value)
        : m_state(std::in_place_index<0>, std::move(value))
    {}
    Result(ApiError error)
        : m_state(std::in_place_index<1>, std::move(error))
    {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_state); }
    T &value() & { return std::get<0>(m_state); }
    T &&value() && { return std::get<0>(std::move(m_state)); }
    const ApiError &error() const { return std::get<1>(m_state); }

private:
    std::variant<T, ApiError> m_state;
};

// For operations whose success carries no value.
struct Done
{
    friend bool operator==(Done, Done) = default;
};

} // namespace md::api
