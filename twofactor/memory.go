package twofactor

import (
	"context"
	"crypto/subtle"
	"slices"
	"sync"
)

// MemoryStore is a Store in process memory, for tests and single-process
// development: its secrets are lost when the process ends. The zero value
// is ready to use.
type MemoryStore struct {
	mu    sync.Mutex
	users map[string]Secret
}

// TwoFactor implements Store.
func (m *MemoryStore) TwoFactor(_ context.Context, userID string) (Secret, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.users[userID]
	if !ok {
		return Secret{}, ErrNotEnrolled
	}
	s.BackupCodes = slices.Clone(s.BackupCodes)
	return s, nil
}

// SetTwoFactor implements Store.
func (m *MemoryStore) SetTwoFactor(_ context.Context, userID string, s Secret) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.users == nil {
		m.users = make(map[string]Secret)
	}
	s.BackupCodes = slices.Clone(s.BackupCodes)
	m.users[userID] = s
	return nil
}

// DeleteTwoFactor implements Store.
func (m *MemoryStore) DeleteTwoFactor(_ context.Context, userID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.users, userID)
	return nil
}

// update runs fn on userID's Secret under the lock and keeps the result
// unless fn fails.
func (m *MemoryStore) update(userID string, fn func(*Secret) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.users[userID]
	if !ok {
		return ErrNotEnrolled
	}
	if err := fn(&s); err != nil {
		return err
	}
	m.users[userID] = s
	return nil
}

// AdvanceTOTPStep implements Store.
func (m *MemoryStore) AdvanceTOTPStep(_ context.Context, userID string, step int64) error {
	return m.update(userID, func(s *Secret) error {
		if step <= s.LastStep {
			return ErrReplayed
		}
		s.LastStep = step
		return nil
	})
}

// ReplaceBackupCodes implements Store.
func (m *MemoryStore) ReplaceBackupCodes(_ context.Context, userID string, hashes []string) error {
	return m.update(userID, func(s *Secret) error {
		s.BackupCodes = slices.Clone(hashes)
		return nil
	})
}

// ConsumeBackupCode implements Store. It compares hash with every stored
// hash in constant time.
func (m *MemoryStore) ConsumeBackupCode(_ context.Context, userID, hash string) error {
	return m.update(userID, func(s *Secret) error {
		found := -1
		for i, h := range s.BackupCodes {
			if subtle.ConstantTimeCompare([]byte(h), []byte(hash)) == 1 {
				found = i
			}
		}
		if found < 0 {
			return ErrInvalidCode
		}
		s.BackupCodes = slices.Delete(slices.Clone(s.BackupCodes), found, found+1)
		return nil
	})
}
