// Field problems said in words, once: the wire path and message an error
// carries ("items[1].tiers[0].amount: expected a number") become the
// sentence a person reads ("Item 2, tier 1: the amount must be a number").
// Lists are numbered from 1, names are words, and the decoder's stock
// messages are said plainly; a field named again at the start of its
// message ("customer_id: customer_id: …") is said once.
#pragma once

#include "services/api/ApiError.h"

#include <QCoreApplication>

namespace md::models {

class FieldWords final
{
    Q_DECLARE_TR_FUNCTIONS(FieldWords)

public:
    // The error as one sentence; an error that names no field keeps its message.
    static QString sentence(const api::ApiError &error);
    // The wire path a refusal (status 400) begins with, else empty.
    static QString path(const api::ApiError &error);
    // What is wrong, in words, without the place: for a place shown
    // otherwise (a table cell).
    static QString problem(const api::ApiError &error);
};

} // namespace md::models
