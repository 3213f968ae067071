// The usage backfill wizard's first page: the file, read in the background
// (a million rows never freeze the window), its CSV columns mapped to the
// event's fields with saved profiles, and every row's problem shown where it
// is (line, column, cell); rows with problems are left out of what is sent.
#pragma once

#include "models/usage/UsageBackfill.h"

#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QStandardItemModel;
class QWidget;

namespace md::models {
class UsageImportSession;
}

namespace md::views {

class UsageSourcePage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageSourcePage)

public:
    explicit UsageSourcePage(models::UsageImportSession *session);

    QLineEdit *pathEdit() const { return m_path; }
    QComboBox *fieldCombo(models::UsageField field) const { return m_fields.value(field); }
    QStandardItemModel *problems() const { return m_problems; }
    bool isReading() const { return m_reading; }
    // Reads `path` now (the Browse button and the path field do this too).
    void readFile(const QString &path);

    bool isComplete() const override;
    bool validatePage() override;

Q_SIGNALS:
    // A read or a remap finished (tests wait for it).
    void read();

private:
    struct Loaded;
    void start(std::function<Loaded()> work);
    void loaded(const Loaded &result);
    void mappingEdited();
    void showMapping(const models::UsageMapping &current);
    void showProblems();
    void showResume();
    void saveProfile();
    void loadProfile(const QString &name);
    void deleteProfile();
    models::UsageMapping mappingShown() const;

    models::UsageImportSession *m_session;
    QLineEdit *m_path;
    QWidget *m_mappingBox;
    QMap<models::UsageField, QComboBox *> m_fields;
    QComboBox *m_profiles;
    QLabel *m_summary;
    QProgressBar *m_busy;
    QStandardItemModel *m_problems;
    QCheckBox *m_resume;
    QList<models::UsageBackfill::Item> m_items;
    QString m_keyPrefix;
    bool m_reading = false;
    bool m_readingFile = false; // a file, not a remap of the one read
    bool m_showingMapping = false;
    quint64 m_generation = 0; // a newer read makes an older one's answer moot
};

} // namespace md::views
