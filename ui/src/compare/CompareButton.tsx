import { useNavigate } from "react-router-dom";
import { MAX_COMPARED, compareHref } from "./compare";

/** The Jobs page's action on its ticked jobs: open the Compare page of them (two to MAX_COMPARED). */
export function CompareButton({ jobIds }: { jobIds: string[] }) {
  const navigate = useNavigate();
  const tooMany = jobIds.length > MAX_COMPARED;
  return (
    <button
      disabled={jobIds.length < 2 || tooMany}
      title={tooMany ? `At most ${MAX_COMPARED} jobs at once` : "Overlay the selected jobs' metric charts"}
      onClick={() => navigate(compareHref(jobIds))}
    >
      Compare {jobIds.length} selected
    </button>
  );
}
