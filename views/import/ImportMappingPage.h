// Step 2 (CSV): what each column is (customer id, name, email, processor
// ids, plan, status, or a feature's usage), with its first value beside it;
// mappings can be saved as named profiles and reused.
#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;
class QTableWidget;

namespace md::models {
class ImportSession;
struct CsvMapping;
} // namespace md::models

namespace md::views {

class ImportMappingPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportMappingPage)

public:
    explicit ImportMappingPage(models::ImportSession *session);

    void initializePage() override;
    bool isComplete() const override;
    // The mapping the table shows; setting it reads the batch with it.
    models::CsvMapping mapping() const;
    void setMapping(const models::CsvMapping &mapping);
    // Applies a saved profile; false when there is none of that name.
    bool applyProfile(const QString &name);
    void saveProfile(const QString &name);

private:
    void mappingEdited();
    void reloadProfiles();

    models::ImportSession *m_session;
    QTableWidget *m_columns;
    QComboBox *m_profiles;
    QLabel *m_status;
    bool m_showing = false;
};

} // namespace md::views
