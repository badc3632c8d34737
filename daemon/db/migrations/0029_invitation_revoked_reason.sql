-- Why an invitation was revoked: NULL when a team admin revoked it, 'inviter_removed' when the
-- member who sent it was removed (accepting it then answers 410 saying so). Pending invitations
-- sent by members removed before this migration are revoked the same way.
ALTER TABLE team_invitations ADD COLUMN revoked_reason TEXT;
UPDATE team_invitations SET status = 'revoked', revoked_reason = 'inviter_removed'
  WHERE status = 'pending'
    AND invited_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL);
