// One changed field of a form, as its review shows it (views/common/
// ChangeReview): every form model says its changes with these.
#pragma once

#include <QString>

namespace md::models {

struct FieldChange
{
    QString field;
    QString before;
    QString after;
    friend bool operator==(const FieldChange &, const FieldChange &) = default;
};

} // namespace md::models
