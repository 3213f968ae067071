// "Review changes": the field-by-field difference of an admin form, shown
// before anything is saved (products and rewards share it).
#pragma once

#include "models/common/FieldChange.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace md::views {

class ChangeReview final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangeReview)

public:
    explicit ChangeReview(QWidget *parent = nullptr);

    void show(const QList<models::FieldChange> &changes);
    // The line above the table and its value columns' titles ("Before", "After").
    void setTitles(const QString &caption, const QString &before, const QString &after);
    // What the server said when saving failed.
    void showProblem(const QString &message);
    // A sentence below the table on what saving will do beyond the fields
    // (a new version, a balance's reset); show() clears it.
    void setNote(const QString &note);
    QTableWidget *table() const { return m_table; }
    QString problem() const;
    QString note() const;

private:
    QTableWidget *m_table;
    QLabel *m_caption;
    QLabel *m_note;
    QLabel *m_problem;
};

} // namespace md::views
